from django.contrib.auth import authenticate
from rest_framework import serializers

from accounts.models import User, validate_time_zone


class RegisterSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)
    display_name = serializers.CharField(max_length=40, required=False, default="")


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)

    def validate(self, attrs: dict) -> dict:
        user = authenticate(
            request=self.context.get("request"),
            username=attrs["username"],
            password=attrs["password"],
        )
        if user is None:
            raise serializers.ValidationError(
                "Unknown username or wrong password.", code="invalid_credentials"
            )
        attrs["user"] = user
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class MeSerializer(serializers.ModelSerializer):
    time_zone = serializers.CharField(max_length=64, validators=[validate_time_zone])

    class Meta:
        model = User
        fields = ["id", "username", "display_name", "language", "time_zone", "date_joined"]
        read_only_fields = ["id", "username", "date_joined"]


class RegisteredSerializer(MeSerializer):
    token = serializers.CharField()

    class Meta(MeSerializer.Meta):
        fields = [*MeSerializer.Meta.fields, "token"]
